package dev.bulwark.redis;

import dev.bulwark.redis.client.LuaScript;

/** Every script of the store, read once per class loader. */
final class Scripts {

  static final LuaScript PERMIT_ACQUIRE =
      LuaScript.load("permit_acquire", "expiry", "given_up", "queue", "since", "permits");
  static final LuaScript PERMIT_POLL =
      LuaScript.load("permit_poll", "expiry", "queue", "since", "permits");
  static final LuaScript PERMIT_CANCEL =
      LuaScript.load("permit_cancel", "expiry", "given_up", "queue", "since", "permits");
  static final LuaScript PERMIT_RELEASE =
      LuaScript.load("permit_release", "expiry", "queue", "since", "permits");
  static final LuaScript LOCK_ACQUIRE =
      LuaScript.load("lock_acquire", "expiry", "given_up", "queue", "since", "locks");
  static final LuaScript LOCK_POLL =
      LuaScript.load("lock_poll", "expiry", "queue", "since", "locks");
  static final LuaScript LOCK_CANCEL =
      LuaScript.load("lock_cancel", "expiry", "given_up", "queue", "since", "locks");
  static final LuaScript LOCK_RELEASE =
      LuaScript.load("lock_release", "expiry", "queue", "since", "locks");
  static final LuaScript RENEW = LuaScript.load("renew", "expiry");
  static final LuaScript RATE_SMOOTH = LuaScript.loadRemembered("rate_smooth");
  static final LuaScript RATE_FIXED = LuaScript.loadRemembered("rate_fixed");
  static final LuaScript RATE_ROLLING = LuaScript.loadRemembered("rate_rolling");
  static final LuaScript DEFINE = LuaScript.load("define");
  static final LuaScript PERMIT_INSPECT =
      LuaScript.load("permit_inspect", "expiry", "queue", "since");
  static final LuaScript LOCK_INSPECT = LuaScript.load("lock_inspect", "expiry", "queue", "since");
  static final LuaScript RATE_INSPECT = LuaScript.load("rate_inspect");

  private Scripts() {}
}
