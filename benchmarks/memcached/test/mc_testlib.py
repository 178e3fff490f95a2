"""Helpers of the ptm-memcached tests: start a server on a free port, talk
to it over raw sockets (text and binary protocol), record failed checks and
turn them into the exit status."""
import os
import re
import socket
import struct
import subprocess
import time


failures = []


def check(cond, what):
    """Records (and prints) a failed check; the test goes on."""
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", flush=True)


def verdict(passed):
    """The exit status: 1 after failed checks, else 0 (printing PASSED)."""
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print(passed)
    return 0


class Server:
    """ptm-memcached (or memcached) as a child process on a free port."""

    def __init__(self, exe, *args, pool=None, env=None):
        cmd = [exe, "-p", "-1", "-U", "0", "-l", "127.0.0.1", *args]
        if pool:
            cmd += ["--pool", pool]
        self.cmd = cmd
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env=full_env)
        self.port = None
        self.log = []
        deadline = time.monotonic() + 120  # start-up on a loaded machine
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line:
                break
            self.log.append(line)
            m = re.search(r"listening on \S+ port (\d+)", line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            self.proc.kill()
            rest = self.proc.stderr.read()
            raise RuntimeError(f"{' '.join(cmd)} did not start: "
                               f"{''.join(self.log)}{rest}")

    def kill(self, sig=9):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=30)
        return self.proc.returncode

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        rest = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.proc.returncode, "".join(self.log) + rest

    def connect(self):
        return Client(self.port)


class Client:
    def __init__(self, port, timeout=60):
        self.sock = socket.create_connection(("127.0.0.1", port),
                                             timeout=timeout)
        self.buf = b""

    def close(self):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("connection closed by the server")
        self.buf += chunk

    def line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def exact(self, n):
        while len(self.buf) < n:
            self._fill()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def cmd(self, text):
        """Sends one request line (and data), returns the first reply line."""
        self.send(text if isinstance(text, bytes) else text.encode())
        return self.line()

    def closed(self, wait=60):
        """True if the server closes the connection (nothing else to read)
        within WAIT seconds (a deadline for a hang: a close returns at
        once)."""
        self.sock.settimeout(wait)
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
                self.buf += chunk
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True

    # text protocol
    def set(self, key, value, flags=0, exptime=0, op="set", cas=None,
            noreply=False):
        if isinstance(value, str):
            value = value.encode()
        head = f"{op} {key} {flags} {exptime} {len(value)}"
        if cas is not None:
            head += f" {cas}"
        if noreply:
            head += " noreply"
        self.send(head.encode() + b"\r\n" + value + b"\r\n")
        return None if noreply else self.line()

    def get_multi(self, keys, cmd="get"):
        """{key: (flags, value[, cas])} from one get/gets request."""
        self.send(f"{cmd} {' '.join(keys)}\r\n".encode())
        found = {}
        while True:
            line = self.line()
            if line == b"END":
                return found
            parts = line.split()
            if parts[0] != b"VALUE":
                raise AssertionError(f"unexpected reply {line!r}")
            data = self.exact(int(parts[3]) + 2)
            assert data.endswith(b"\r\n"), data
            entry = (int(parts[2]), data[:-2])
            if len(parts) == 5:
                entry += (int(parts[4]),)
            found[parts[1].decode()] = entry

    def get(self, key):
        return self.get_multi([key]).get(key)

    def gets(self, key):
        return self.get_multi([key], "gets").get(key)

    def stats(self, group=""):
        """A stats group; the general one with the `stats ptm` fields (the
        pool and the transactions) added."""
        if group == "":
            return {**self._stats(""), **self._stats("ptm")}
        return self._stats(group)

    def _stats(self, group):
        self.send(f"stats {group}".strip().encode() + b"\r\n")
        out = {}
        while True:
            line = self.line()
            if line == b"END":
                return out
            _, name, value = line.decode().split(" ", 2)
            out[name] = value

    # binary protocol
    def bin_request(self, opcode, key=b"", value=b"", extras=b"", cas=0,
                    opaque=0, magic=0x80):
        header = struct.pack(">BBHBBHIIQ", magic, opcode, len(key),
                             len(extras), 0, 0,
                             len(extras) + len(key) + len(value), opaque,
                             cas)
        self.send(header + extras + key + value)

    def bin_response(self):
        header = self.exact(24)
        (magic, opcode, keylen, extlen, _, status, bodylen, opaque,
         cas) = struct.unpack(">BBHBBHIIQ", header)
        assert magic == 0x81, f"bad response magic {magic:#x}"
        body = self.exact(bodylen)
        return {"opcode": opcode, "status": status, "opaque": opaque,
                "cas": cas, "extras": body[:extlen],
                "key": body[extlen:extlen + keylen],
                "value": body[extlen + keylen:]}
