"""Boot arguments written into a kernel image for a board whose loader
passes no device tree (the D1 under xfel): src/kernel/bootargs.c keeps a
256-byte area that starts with MAGIC; the arguments follow it,
NUL-terminated, and the kernel reads them before the device tree's."""
import re

MAGIC = b"uartbench-bootargs:"
ROOM = 256                       # the magic, the arguments and their NUL
ARG_RE = re.compile(r"^[a-z][a-z0-9_]*=[!-~]+$")


def patch(image, args):
    """image (bytes) with args (["key=value", ...]) written after its
    MAGIC; ValueError naming what is wrong."""
    for a in args:
        if not ARG_RE.match(a):
            raise ValueError(f"boot argument {a!r}: give key=value, a lowercase key and a "
                             "value of printable characters without spaces")
    at = image.find(MAGIC)
    if at < 0 or image.find(MAGIC, at + 1) >= 0:
        raise ValueError("the image has no place for boot arguments (no single "
                         f"{MAGIC.decode()!r}): rebuild it from this tree")
    text = " ".join(args).encode()
    room = ROOM - len(MAGIC) - 1
    if len(text) > room:
        raise ValueError(f"boot arguments of {len(text)} bytes: the image takes {room}")
    start = at + len(MAGIC)
    return image[:start] + text.ljust(room + 1, b"\0") + image[start + room + 1:]
