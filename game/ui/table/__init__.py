"""The card table: the table scene, its turn controller, presentation model, layout, drag and animations."""
