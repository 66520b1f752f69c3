/**
 * The databases the lab runs on, PostgreSQL and MariaDB: their names and their embedded
 * servers, used by both the services and the harness.
 */
@NullMarked
package org.poollab.vendor;

import org.jspecify.annotations.NullMarked;
