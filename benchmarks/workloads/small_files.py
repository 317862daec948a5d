"""P3 many-small-files workload: create, write, close, then read back N small files in the scratch dir."""
import os, sys

scratch, n = sys.argv[1], int(sys.argv[2])
work = os.path.join(scratch, "small-%d" % os.getpid())
os.makedirs(work)
payload = b"x" * 512
for i in range(n):
    with open(os.path.join(work, "f%05d.txt" % i), "wb") as f:
        f.write(payload)
total = 0
for i in range(n):
    with open(os.path.join(work, "f%05d.txt" % i), "rb") as f:
        total += len(f.read())
for i in range(n):
    os.unlink(os.path.join(work, "f%05d.txt" % i))
os.rmdir(work)
sys.exit(0 if total == n * len(payload) else 1)
