package dev.bulwark.tck.model;

/**
 * One request of one simulated JVM: request ids count from 1 in every JVM, so the pair is what
 * tells two callers apart.
 *
 * @param jvm the index of the JVM that made the request
 * @param requestId its request id in that JVM
 */
public record Caller(int jvm, long requestId) {

  @Override
  public String toString() {
    return "jvm" + jvm + "#" + requestId;
  }
}
