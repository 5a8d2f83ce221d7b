#!/usr/bin/python3
"""udevd-standin.py PATH: answers on a udev control socket at PATH as udevd does.

udevadm control (udev 252) connects to /run/udev/control, sends its requests (--ping,
--reload), then a closing message of type 0, and takes the daemon's closing the connection as
its reply. This accepts each connection and closes it at that message: udevadm control
succeeds, as against a running udevd, and nothing is done. Prints "ready" once it listens.
Stands in for a udevd where the package scripts must find one that answers (.ci/package-test.sh,
.ci/container-install.sh)."""
import socket
import struct
import sys

server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
server.bind(sys.argv[1])
server.listen()
print("ready", flush=True)
while True:
    conn, _ = server.accept()
    while True:
        # The message: a 16-byte version, the magic, then the type.
        msg = conn.recv(4096)
        if len(msg) < 24 or struct.unpack_from("=I", msg, 20)[0] == 0:
            break
    conn.close()
