import sys

from bench.bgio import main

sys.exit(main())
