package dev.bulwark.sample;

import dev.bulwark.BulkheadSnapshot;
import dev.bulwark.Bulwark;
import dev.bulwark.Holder;
import dev.bulwark.LockKeySnapshot;
import dev.bulwark.cdi.BulwarkRuntime;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.engine.Limit;
import dev.bulwark.core.event.LimitStats;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The operator's view, read-only: {@code GET /bulwark/limits} lists every limit with its effective
 * values, what this JVM counted, and its state in the store across the cluster; {@code GET
 * /bulwark/limits/lock/{name}/{key}} shows one lock key's writer, readers and queue.
 */
@Path("/bulwark/limits")
@Produces(MediaType.APPLICATION_JSON)
public class LimitsResource {

  @Inject BulwarkRuntime runtime;
  @Inject Bulwark bulwark;

  @GET
  public List<LimitView> limits() {
    return runtime.engine().registry().limits().stream()
        .map(this::view)
        .sorted(Comparator.comparing(LimitView::kind).thenComparing(LimitView::name))
        .toList();
  }

  @GET
  @Path("/lock/{name}/{key}")
  public LockKeySnapshot lockKey(@PathParam("name") String name, @PathParam("key") String key) {
    return bulwark.lock(name).inspect(key);
  }

  /**
   * One limit.
   *
   * @param values the effective definition, member by member
   * @param thisJvm what this JVM counted since it started
   * @param cluster the store's state now (a lock: per key, see {@link #lockKey}); null for a lock
   */
  public record LimitView(
      String kind,
      String name,
      Map<String, String> values,
      Map<String, Long> thisJvm,
      Object cluster) {}

  /** A bulkhead's snapshot with its available permits, which the record only computes. */
  public record BulkheadView(int limit, int available, List<Holder> holders, int queued) {
    static BulkheadView of(BulkheadSnapshot snapshot) {
      return new BulkheadView(
          snapshot.limit(), snapshot.available(), snapshot.holders(), snapshot.queued());
    }
  }

  private LimitView view(Limit limit) {
    LimitKind kind = limit.definition().kind();
    String name = limit.definition().name();
    Object cluster =
        switch (kind) {
          case BULKHEAD -> BulkheadView.of(bulwark.bulkhead(name).inspect());
          case RATE_LIMIT -> bulwark.rateLimiter(name).inspect();
          case LOCK -> null;
        };
    return new LimitView(
        kind.configSegment(), name, limit.definition().values(), counts(limit.stats()), cluster);
  }

  private static Map<String, Long> counts(LimitStats stats) {
    return Map.of(
        "granted", stats.granted(),
        "waited", stats.waited(),
        "rejected", stats.rejected(),
        "storeFailures", stats.storeFailures(),
        "passedThrough", stats.passedThrough(),
        "leasesLost", stats.leasesLost(),
        "leasesExpiredAtRelease", stats.expiredAtRelease());
  }
}
