import sys

from tantrix.cli import main

sys.exit(main())
