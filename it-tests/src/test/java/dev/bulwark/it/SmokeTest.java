package dev.bulwark.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ArquillianExtension.class)
class SmokeTest {

  @ApplicationScoped
  public static class Greeter {
    public String greet(String who) {
      return "hello " + who;
    }
  }

  @Deployment
  static JavaArchive deployment() {
    return ShrinkWrap.create(JavaArchive.class, "smoke.jar")
        .addClass(Greeter.class)
        .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
  }

  @Inject Greeter greeter;

  @Test
  void containerInjects() {
    assertThat(greeter.greet("weld")).isEqualTo("hello weld");
  }
}
