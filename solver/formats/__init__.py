"""What goes to and from disk: safe atomic writes (``files``), the table file format
(``tablefile``) and table exports (``export``)."""
