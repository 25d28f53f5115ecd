-- Bulwark JPA store tables for MariaDB, the same as schema generation
-- creates them. For another bulwark.jpa.table-prefix, replace every "bulwark_" below with it.
-- Apply with Flyway, Liquibase (sqlFile) or by hand, then run with bulwark.jpa.schema-generation=none.

CREATE TABLE bulwark_limit (
  id VARCHAR(64) NOT NULL,
  kind VARCHAR(1) NOT NULL,
  name VARCHAR(1000) NOT NULL,
  fencing BIGINT NOT NULL,
  next_seq BIGINT NOT NULL,
  definition VARCHAR(255),
  defined_by VARCHAR(64),
  rate_type VARCHAR(8),
  rate_first BIGINT NOT NULL,
  rate_second BIGINT NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

CREATE TABLE bulwark_claim (
  id VARCHAR(64) NOT NULL,
  limit_id VARCHAR(64) NOT NULL,
  key_hash VARCHAR(64) NOT NULL,
  instance VARCHAR(32) NOT NULL,
  request_id BIGINT NOT NULL,
  claim_mode VARCHAR(1) NOT NULL,
  held BOOLEAN NOT NULL,
  seq BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  granted_at BIGINT NOT NULL,
  token BIGINT NOT NULL,
  notice BOOLEAN NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

CREATE INDEX bulwark_claim_ix_limit_id ON bulwark_claim (limit_id, key_hash, seq);
CREATE INDEX bulwark_claim_ix_instance ON bulwark_claim (instance, notice);
CREATE INDEX bulwark_claim_ix_expires_at ON bulwark_claim (expires_at);

CREATE TABLE bulwark_rate_grant (
  id VARCHAR(90) NOT NULL,
  limit_id VARCHAR(64) NOT NULL,
  seq BIGINT NOT NULL,
  granted_at BIGINT NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

CREATE INDEX bulwark_rate_grant_ix_limit_id ON bulwark_rate_grant (limit_id, seq);
