package dev.bulwark.redis;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a {@link TestRedis} (a fresh key prefix on the resolved server) and removes its
 * stores and keys afterwards. A class without a server is skipped as a whole in {@code beforeAll}
 * (or fails under {@code CI=true}).
 */
final class RedisExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RedisExtension.class);

  @Override
  public void beforeEach(ExtensionContext context) {
    TestRedisServer.url();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestRedis.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            TestRedis.class, type -> new TestRedis(TestRedisServer.url()), TestRedis.class);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    TestRedis redis = context.getStore(NAMESPACE).remove(TestRedis.class, TestRedis.class);
    if (redis != null) {
      redis.cleanUp();
    }
  }
}
