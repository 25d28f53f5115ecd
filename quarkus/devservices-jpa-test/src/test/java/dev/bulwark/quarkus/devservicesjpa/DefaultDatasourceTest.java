package dev.bulwark.quarkus.devservicesjpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bulwark.Bulwark;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * {@code bulwark.store=jpa} with no database set: the store keeps its claims in the default
 * datasource, the H2 that Quarkus' Dev Services started.
 */
@QuarkusTest
class DefaultDatasourceTest {

  @Inject Reports reports;
  @Inject Bulwark bulwark;
  @Inject AgroalDataSource dataSource;

  @ConfigProperty(name = "quarkus.datasource.jdbc.url")
  String url;

  @Test
  void aHeldCallsClaimIsARowOfTheDefaultDatasource() throws Exception {
    assertThat(url).as("the Dev Services' H2").startsWith("jdbc:h2:");
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> call =
        CompletableFuture.runAsync(() -> reports.generate(entered, release));
    try {
      assertThat(entered.await(10, TimeUnit.SECONDS)).as("the call started").isTrue();
      assertThat(claims()).isEqualTo(1);
      assertThat(bulwark.bulkhead("reports").inspect().holders()).hasSize(1);
    } finally {
      release.countDown();
    }
    call.get(10, TimeUnit.SECONDS);
    // the release is posted when the call returns: its transaction commits a moment later
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (claims() != 0) {
      assertThat(System.nanoTime() - deadline).as("the claim released within 10 s").isNegative();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  private long claims() throws Exception {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement count =
            connection.prepareStatement("select count(*) from bulwark_claim");
        ResultSet rows = count.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
