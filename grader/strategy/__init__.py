"""The minimal-level strategy: the engine, propagation, grading, the hierarchy,
rule plugins, the expert walk and the trials."""
