package dev.bulwark.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.cdi.DeclaredLimits;
import dev.bulwark.core.config.LimitKind;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableBean;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With the extension, bulwark-cdi's build-compatible extension stands aside: exactly one bean holds
 * the declared limits, the extension's, built from its Jandex scan.
 */
class OneDeclarationPathTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest().withApplicationRoot(archive -> archive.addClasses(Guarded.class));

  @Inject @Any Instance<DeclaredLimits> declared;

  @Test
  void onlyTheExtensionDeclaresTheLimits() {
    assertThat(declared.handles()).hasSize(1);
    InjectableBean<DeclaredLimits> bean =
        (InjectableBean<DeclaredLimits>) declared.getHandle().getBean();
    assertThat(bean.getKind()).isEqualTo(InjectableBean.Kind.SYNTHETIC);
    assertThat(Arc.container().beanManager().getBeans(DeclaredLimits.class)).hasSize(1);
    assertThat(declared.get().catalog().named(LimitKind.BULKHEAD, "one-path")).isPresent();
  }

  @ApplicationScoped
  public static class Guarded {
    @DistributedBulkhead(name = "one-path", value = 1)
    public void call() {}
  }
}
