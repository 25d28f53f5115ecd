package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;

/** Every script of the store, read once per class loader. */
final class Scripts {

  /** What every permit script loads: the steps (lib/permit_steps.lua) and what they use. */
  private static final String[] PERMIT_STEPS = {
    "expiry", "given_up", "queue", "since", "permits", "permit_steps"
  };

  /** What every lock script loads: the steps (lib/lock_steps.lua) and what they use. */
  private static final String[] LOCK_STEPS = {
    "expiry", "given_up", "queue", "since", "locks", "lock_steps"
  };

  static final LuaScript PERMIT_ACQUIRE = LuaScript.load("permit_acquire", PERMIT_STEPS);
  static final LuaScript PERMIT_POLL = LuaScript.load("permit_poll", PERMIT_STEPS);
  static final LuaScript PERMIT_CANCEL = LuaScript.load("permit_cancel", PERMIT_STEPS);
  static final LuaScript PERMIT_RELEASE = LuaScript.load("permit_release", PERMIT_STEPS);
  static final LuaScript PERMIT_BATCH = LuaScript.load("permit_batch", PERMIT_STEPS);
  static final LuaScript LOCK_ACQUIRE = LuaScript.load("lock_acquire", LOCK_STEPS);
  static final LuaScript LOCK_POLL = LuaScript.load("lock_poll", LOCK_STEPS);
  static final LuaScript LOCK_CANCEL = LuaScript.load("lock_cancel", LOCK_STEPS);
  static final LuaScript LOCK_RELEASE = LuaScript.load("lock_release", LOCK_STEPS);
  static final LuaScript LOCK_BATCH = LuaScript.load("lock_batch", LOCK_STEPS);
  static final LuaScript RENEW = LuaScript.load("renew", "expiry");
  static final LuaScript RATE_SMOOTH = LuaScript.loadRemembered("rate_smooth", "smooth");
  static final LuaScript RATE_FIXED = LuaScript.loadRemembered("rate_fixed", "fixed");
  static final LuaScript RATE_ROLLING = LuaScript.loadRemembered("rate_rolling", "rolling");
  static final LuaScript RATE_BATCH =
      LuaScript.loadRemembered("rate_batch", "smooth", "fixed", "rolling");
  static final LuaScript DEFINE = LuaScript.load("define");
  static final LuaScript PERMIT_INSPECT =
      LuaScript.load("permit_inspect", "expiry", "queue", "since");
  static final LuaScript LOCK_INSPECT = LuaScript.load("lock_inspect", "expiry", "queue", "since");
  static final LuaScript RATE_INSPECT = LuaScript.load("rate_inspect");

  private Scripts() {}
}
