package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.BulkheadFullException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArquillianExtension.class)
class FtProbeTest {

  @ApplicationScoped
  public static class Svc {
    final AtomicInteger attempts = new AtomicInteger();

    @Fallback(fallbackMethod = "fb", applyOn = BulkheadException.class)
    public String fails() {
      throw new BulkheadFullException("x", "full");
    }

    String fb() {
      return "fallback";
    }

    int attempts() {
      return attempts.get();
    }

    @Retry(maxRetries = 3, delay = 0)
    public String retried() {
      if (attempts.incrementAndGet() < 3) {
        throw new BulkheadFullException("x", "full");
      }
      return "ok";
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return ShrinkWrap.create(JavaArchive.class, "ftprobe.jar")
        .addClass(Svc.class)
        .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
  }

  @Inject Svc svc;

  @Test
  void ft() {
    assertThat(svc.fails()).isEqualTo("fallback");
    assertThat(svc.retried()).isEqualTo("ok");
    assertThat(svc.attempts()).isEqualTo(3);
  }
}
