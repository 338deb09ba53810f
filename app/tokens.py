"""Room codes and seat tokens.

Codes are short and easy to read aloud or type (no 0/O, 1/I/L); tokens are long random secrets,
shown once and stored only as a SHA-256 hash (they carry 256 random bits, so a fast hash is enough).
"""

import hashlib
import hmac
import secrets

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def new_code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalize_code(code: str) -> str:
    return code.strip().upper()


def is_code(code: str) -> bool:
    return 4 <= len(code) <= 16 and all(c in CODE_ALPHABET for c in code)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a, b)
