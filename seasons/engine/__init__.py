"""Pure season engines (no Django): series points and standings (``points``), ratings (``ratings``)."""
