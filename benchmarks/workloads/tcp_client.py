"""P5 loopback TCP: N connect+request+response+close round trips to the harness-owned server (allowed port)."""
import socket, sys

port, n = int(sys.argv[1]), int(sys.argv[2])
for _ in range(n):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /x\n")
        got = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    if len(got) != 1024:
        sys.exit(1)
