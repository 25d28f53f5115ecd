package dev.bulwark.redis.modelcheck;

/** One explored state: the callers' side and the store's side, at the model's clock. */
record Step(ModelState model, StoreContents store) {}
