"""A small proof of work for registrations beyond an address's first few (docs/accounts.md,
"How many accounts one address may make").

A classroom or a family shares one address, so the per-address bound is high (30 an hour,
60 a day). What keeps a script from filling it is work, not a puzzle: past
:attr:`~.limits.ServerLimits.registrations_without_proof` accounts in the last hour, each
registration carries a hashcash proof whose cost doubles every :data:`STEP` registrations
more, computed by the register form (Web Crypto SHA-256) while the player types nothing
else. A pupil waits a moment; the 30th account of the hour costs some 2^18 hashes.

The challenge is stateless: ``issued.bits.nonce.mac``, the mac keyed by the site key and
bound to the client's address, so every process checks what any process issued and a
challenge fetched from one address is worthless from another. The proof hashes the
challenge with the very name being registered, so one proof makes one account at most (a
second registration of the name is refused as taken).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from .lobby import LobbyError

BASE_BITS: Final = 10
"""Leading zero bits of the first proof asked (about a thousand hashes)."""
STEP: Final = 3
"""One more bit (twice the work) every this many registrations more in the hour."""
MAX_BITS: Final = 24
CHALLENGE_SECONDS: Final = 600.0
"""How long a challenge may be used (the form fetches a fresh one at each submit)."""


def bits_needed(recent: int, free: int) -> int:
    """The proof's cost for an address that made ``recent`` accounts in the last hour, the
    first ``free`` needing none."""
    if recent < free:
        return 0
    return min(MAX_BITS, BASE_BITS + (recent - free) // STEP)


def leading_zero_bits(digest: bytes) -> int:
    bits = 0
    for byte in digest:
        if byte == 0:
            bits += 8
            continue
        return bits + 8 - byte.bit_length()
    return bits


def proof_digest(challenge: str, name: str, counter: str) -> bytes:
    """What the form hashes: ``challenge \\n name \\n counter`` in UTF-8."""
    return hashlib.sha256(f"{challenge}\n{name}\n{counter}".encode()).digest()


def solve(challenge: str, name: str, bits: int) -> str:
    """The first counter that proves ``bits`` (what the form does, for tests and tools)."""
    counter = 0
    while leading_zero_bits(proof_digest(challenge, name, str(counter))) < bits:
        counter += 1
    return str(counter)


class Proofs:
    """Challenges issued and proofs checked, keyed by the site's key."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, address: str, issued: int, bits: int, nonce: str) -> str:
        message = f"registration-proof\n{address}\n{issued}\n{bits}\n{nonce}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:32]

    def challenge(self, address: str, bits: int, now: float) -> str:
        issued, nonce = int(now), secrets.token_hex(8)
        return f"{issued}.{bits}.{nonce}.{self._mac(address, issued, bits, nonce)}"

    def check(self, proof: object, name: object, address: str, needed: int, now: float) -> None:
        """Refused (428 ``proof_needed``, or ``bad_proof`` for a wrong, stale or too cheap
        one) unless ``proof`` (``{challenge, counter}``) proves ``needed`` bits for this
        address and name."""
        if not isinstance(proof, dict):
            raise _refused("proof_needed", "this registration needs a proof of work", needed)
        challenge, counter = proof.get("challenge"), proof.get("counter")
        if not (isinstance(challenge, str) and isinstance(counter, str)
                and isinstance(name, str) and len(challenge) <= 80 and len(counter) <= 20):
            raise _refused("bad_proof", "the proof of work is not right", needed)
        parts = challenge.split(".")
        good = len(parts) == 4 and parts[0].isdigit() and parts[1].isdigit()
        if good:
            issued, bits, nonce, mac = int(parts[0]), int(parts[1]), parts[2], parts[3]
            good = (
                hmac.compare_digest(mac, self._mac(address, issued, bits, nonce))
                and now - CHALLENGE_SECONDS <= issued <= now + 5.0
                and bits >= needed
                and leading_zero_bits(proof_digest(challenge, name, counter)) >= bits
            )
        if not good:
            raise _refused("bad_proof", "the proof of work is not right", needed)


def _refused(code: str, message: str, bits: int) -> LobbyError:
    return LobbyError(428, code, f"{message}: ask GET /api/account/challenge", bits=bits)
