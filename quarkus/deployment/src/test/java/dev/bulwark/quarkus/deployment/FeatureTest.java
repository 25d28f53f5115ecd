package dev.bulwark.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import dev.bulwark.DistributedBulkhead;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** With the extension, Quarkus lists the feature and a guarded bean runs under its bulkhead. */
class FeatureTest {

  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(archive -> archive.addClasses(Guarded.class))
          .setLogRecordPredicate(record -> record.getMessage().startsWith("Installed features"))
          .assertLogRecords(
              records ->
                  assertThat(records)
                      .anySatisfy(
                          record ->
                              assertThat(Arrays.toString(record.getParameters()))
                                  .contains(BulwarkProcessor.FEATURE)));

  @Inject Guarded guarded;
  @Inject Bulwark bulwark;

  @Test
  void aGuardedCallHoldsAPermitOfItsBulkhead() {
    assertThat(guarded.availableInside()).isEqualTo(1);
    assertThat(bulwark.bulkhead("skeleton").inspect().available()).isEqualTo(2);
  }

  @ApplicationScoped
  public static class Guarded {
    @Inject Bulwark bulwark;

    @DistributedBulkhead(name = "skeleton", value = 2)
    public int availableInside() {
      return bulwark.bulkhead("skeleton").inspect().available();
    }
  }
}
