"""Entry point of the sandbox child: ``python3 -I -S -B <this dir> CTL_FD STATUS_FD``.

Kept tiny because a script is compiled on every start: the bootstrap and its helpers are
imported as modules so their bytecode is cached (written once, as root, into this
package's __pycache__ where the directory allows; -B stays in force for the program).
"""

import sys

sys.dont_write_bytecode = False
import bootstrap  # noqa: E402 - after allowing the bytecode cache
import confine  # noqa: E402, F401 - imported here, as root, to be cached too
import landlock  # noqa: E402, F401

sys.dont_write_bytecode = True
bootstrap.main()
