/**
 * The service's database: the embedded PostgreSQL when no URL is given, Flyway on its own
 * connection, clear failures for a wrong URL.
 */
@NullMarked
package org.poollab.service.database;

import org.jspecify.annotations.NullMarked;
