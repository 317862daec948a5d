"""P2 general workload: a mixed, realistic small job (JSON, compression, regex, hashing, sqlite, files)."""
import hashlib, json, os, re, sqlite3, sys, zlib

scratch, size = sys.argv[1], int(sys.argv[2])
work = os.path.join(scratch, "general-%d" % os.getpid())
os.makedirs(work)
records = [{"id": i, "name": "item-%d" % i, "tags": ["a", "b", str(i % 7)], "score": i * 0.5} for i in range(size)]
blob = json.dumps(records).encode()
assert json.loads(zlib.decompress(zlib.compress(blob)).decode()) == records
words = re.findall(r"item-(\d+)", blob.decode())
digest = hashlib.sha256(blob).hexdigest()
db = sqlite3.connect(os.path.join(work, "t.db"))
db.execute("create table t (id integer primary key, name text, score real)")
db.executemany("insert into t values (?, ?, ?)", [(r["id"], r["name"], r["score"]) for r in records])
db.commit()
total = db.execute("select count(*), sum(score) from t where name like 'item-%'").fetchone()
db.close()
for i in range(20):
    p = os.path.join(work, "out-%d.json" % i)
    with open(p, "w") as f:
        json.dump(records[i::20], f)
    with open(p) as f:
        json.load(f)
    os.unlink(p)
os.unlink(os.path.join(work, "t.db"))
os.rmdir(work)
if len(words) != size or total[0] != size or not digest:
    sys.exit(1)
