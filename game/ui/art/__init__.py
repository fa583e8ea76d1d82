"""Art drawn by code: card faces and backs, the felt and icon, and the render caches that keep drawing cheap."""
