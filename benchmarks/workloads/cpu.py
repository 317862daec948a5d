"""P7 CPU-bound work: pure integer arithmetic, no I/O."""
import sys

n = int(sys.argv[1])
acc = 0
for i in range(n):
    acc = (acc * 31 + i) % 1000003
sys.exit(0 if acc >= 0 else 1)
