"""Tells what minimax.py was shown in the message of the exit it makes at import (``sys.exit(text)``), and on
stdout before it."""

import sys

print("LEAKED", *getattr(sys, "remembered", [])[-40:])
sys.exit("LEAKED " + " ".join(getattr(sys, "remembered", [])[-40:]))
