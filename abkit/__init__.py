"""abkit core: the game protocol, game trees from YAML fixtures, and search traces.

The core imports nothing else of the kit; the grader, the handouts and the CLI
import it. See README.md, section "Architecture".
"""

__version__ = "0.1.0"
