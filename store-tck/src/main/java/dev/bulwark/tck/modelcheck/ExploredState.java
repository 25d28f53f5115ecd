package dev.bulwark.tck.modelcheck;

/** One explored state: the callers' side and the store's side, at the model's clock. */
public record ExploredState(ModelState model, StoreContents store) {}
