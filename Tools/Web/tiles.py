"""A map tile server for the browser tests: every /Z/X/Y.png is one plain 256x256 PNG while
`up`, HTTP 503 while not, so a test can show the UI both a reachable and an unreachable
tile server on loopback."""
import http.server
import struct
import threading
import zlib


def png(width=256, height=256, rgb=(170, 211, 223)):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


class TileServer:
    def __init__(self):
        self.up = False
        self.served = 0
        tiles = self
        image = png()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if not tiles.up:
                    self.send_error(503, "tiles are down for this check")
                    return
                tiles.served += 1
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(image)))
                self.end_headers()
                self.wfile.write(image)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = f"127.0.0.1:{self.httpd.server_address[1]}"
        self.template = f"http://{self.host}/{{z}}/{{x}}/{{y}}.png"

    def start(self):
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self):
        self.httpd.shutdown()
