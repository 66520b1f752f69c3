/**
 * The service's database: PostgreSQL, or MariaDB with {@code lab.database=mariadb}; the
 * embedded server of either when no URL is given, Flyway on its own connection, clear
 * failures for a wrong URL or a vendor mix-up.
 */
@NullMarked
package org.poollab.service.database;

import org.jspecify.annotations.NullMarked;
