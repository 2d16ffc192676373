// The TempChart module; see DESIGN.md for its job.
