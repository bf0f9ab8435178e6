"""A client written by hand on a plain socket, for what a browser never does: a page's socket
that never reads (a receive buffer of a kilobyte), connections that send nothing, requests
that are not HTTP. Only the WebSocket framing a client needs (RFC 6455: text frames, masked)."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct

from .signing import socket_protocols

HANDSHAKE_END = b"\r\n\r\n"


async def connect(host: str, port: int, *, receive_buffer: int | None = None) -> socket.socket:
    """A non-blocking TCP connection; ``receive_buffer``: its kernel buffer's size, set before
    it connects so that the window the server sees is that small from the start."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, port))
    return sock


async def open_socket_page(
    host: str, port: int, path: str, init_data: str, *, receive_buffer: int | None = None
) -> socket.socket:
    """A page's socket, upgraded (101) and then left alone: nothing after the upgrade's
    answer is read unless the caller reads it."""
    sock = await connect(host, port, receive_buffer=receive_buffer)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Sec-WebSocket-Protocol: {', '.join(socket_protocols(init_data))}\r\n\r\n"
    )
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, request.encode())
    answer = b""
    while HANDSHAKE_END not in answer:
        # One byte at a time: what follows the upgrade's answer stays in the kernel's buffer.
        byte = await loop.sock_recv(sock, 1)
        if not byte:
            raise ConnectionError(f"closed during the upgrade: {answer!r}")
        answer += byte
    status = answer.split(b"\r\n", 1)[0]
    if b" 101 " not in status:
        raise ConnectionError(f"not upgraded: {status!r}")
    return sock


def text_frame(text: str) -> bytes:
    """One masked text frame, as a client must send it."""
    payload = text.encode()
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, 0x80 | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


async def answer_of(host: str, port: int, request: bytes) -> bytes:
    """What the server answers ``request`` (bytes as sent), read until it closes."""
    loop = asyncio.get_running_loop()
    sock = await connect(host, port)
    try:
        await loop.sock_sendall(sock, request)
        answer = b""
        while chunk := await loop.sock_recv(sock, 65536):
            answer += chunk
        return answer
    finally:
        sock.close()
