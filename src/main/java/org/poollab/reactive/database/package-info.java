/**
 * The reactive twin's database: the embedded PostgreSQL when no URL is given, Flyway on
 * its own unpooled JDBC connections, and the one way to a pooled R2DBC connection, from a
 * pool that can be resized while it runs.
 */
@NullMarked
package org.poollab.reactive.database;

import org.jspecify.annotations.NullMarked;
