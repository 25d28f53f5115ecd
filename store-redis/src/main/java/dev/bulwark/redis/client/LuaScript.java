package dev.bulwark.redis.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One atomic operation as a Lua script, read from its {@code .lua} resource (after the shared
 * libraries it uses) and called by SHA. A server that does not know the SHA yet (first use,
 * restart, failover) gets the text once with EVAL, which caches it there.
 */
public final class LuaScript {

  private static final String ROOT = "/dev/bulwark/redis/scripts/";

  private final String name;
  private final String source;
  private final String sha;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source;
    this.sha = sha1(source);
  }

  /** Loads {@code scripts/<name>.lua}, preceded by {@code scripts/lib/<library>.lua} each. */
  public static LuaScript load(String name, String... libraries) {
    StringBuilder source = new StringBuilder(read("lib/common.lua"));
    for (String library : libraries) {
      source.append('\n').append(read("lib/" + library + ".lua"));
    }
    source.append('\n').append(read(name + ".lua"));
    return new LuaScript(name, source.toString());
  }

  /**
   * Loads a reservation script whose reply is remembered per caller ({@code lib/remembered.lua}):
   * its body runs as a function, so a call re-sent by the client gets the first reply instead of a
   * second reservation.
   */
  public static LuaScript loadRemembered(String name, String... libraries) {
    StringBuilder source = new StringBuilder(read("lib/common.lua"));
    for (String library : libraries) {
      source.append('\n').append(read("lib/" + library + ".lua"));
    }
    source
        .append("\nlocal function reserve()\n")
        .append(read(name + ".lua"))
        .append("\nend\n")
        .append(read("lib/remembered.lua"));
    return new LuaScript(name, source.toString());
  }

  public String name() {
    return name;
  }

  public String sha() {
    return sha;
  }

  /** The whole text sent to Redis: the libraries it uses, then the script. */
  public String source() {
    return source;
  }

  public Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
    try {
      return redis.evalsha(sha, keys, args);
    } catch (JedisNoScriptException e) {
      return redis.eval(source, keys, args);
    }
  }

  private static String read(String resource) {
    try (InputStream in = LuaScript.class.getResourceAsStream(ROOT + resource)) {
      if (in == null) {
        throw new IllegalStateException("Missing Bulwark script " + ROOT + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha1(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
