"""`python -m app.client`: the client's command line (the same as `python -m app.bots.client`)."""

import sys

from app.client.cli import main

if __name__ == "__main__":
    sys.exit(main())
