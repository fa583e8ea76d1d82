# Until the modules that raise these layers' problems move into the layers'
# packages (the "Layout:" move), they are registered with the game package.
from game import persistence, session, settings, ui  # noqa: F401
