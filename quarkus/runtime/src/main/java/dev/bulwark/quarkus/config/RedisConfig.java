package dev.bulwark.quarkus.config;

import java.util.Optional;

/** The Redis store's keys, {@code bulwark.redis.*}. */
public interface RedisConfig {

  /** A standalone server's URL. */
  Optional<String> url();

  /** {@code host:port,…} of a Redis Cluster. */
  Optional<String> clusterNodes();

  /** Sentinel. */
  SentinelConfig sentinel();

  /** ACL user. */
  Optional<String> user();

  /** ACL password. */
  Optional<String> password();

  /** TLS. */
  Optional<String> ssl();

  /** File of the CAs to trust for TLS. */
  Optional<String> truststore();

  /** {@code PKCS12}, {@code JKS} or {@code PEM}. */
  Optional<String> truststoreType();

  /** The trust store's password. */
  Optional<String> truststorePassword();

  /** Connections per node. */
  Optional<String> poolSize();

  /** Connect timeout. */
  Optional<String> connectTimeout();

  /** Read timeout. */
  Optional<String> readTimeout();

  /** While Redis is down, how often it is tried. */
  Optional<String> reconnectInterval();

  /** Prefix of every key. */
  Optional<String> keyPrefix();

  /** How often a waiter that missed its wake-up polls. */
  Optional<String> wakeUpCheckInterval();

  /** Replicas that must acknowledge a grant. */
  Optional<String> waitReplicas();

  /** How long a grant waits for those acknowledgements. */
  Optional<String> waitReplicasTimeout();

  /** {@code bulwark.redis.sentinel.*}. */
  interface SentinelConfig {

    /** The master's name. */
    Optional<String> master();

    /** {@code host:port,…} of the Sentinels. */
    Optional<String> nodes();
  }
}
