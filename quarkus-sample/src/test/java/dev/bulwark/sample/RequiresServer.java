package dev.bulwark.sample;

import dev.bulwark.tck.TestServices;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test class (or method) needs a server of this kind. Checked before Quarkus starts the
 * application, so a missing server skips the class with {@link TestServices}' message (fails it
 * under {@code CI=true}) instead of failing the application's start.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ServerCondition.class)
@interface RequiresServer {

  TestServices.Service value();
}
