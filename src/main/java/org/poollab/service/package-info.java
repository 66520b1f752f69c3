/**
 * The service under test: a Spring Boot JDBC application serving {@code GET /roles} over
 * a HikariCP pool.
 */
@NullMarked
package org.poollab.service;

import org.jspecify.annotations.NullMarked;
