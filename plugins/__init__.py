"""Built-in synthdeid plugins; each registers through the same hooks a third party uses."""
