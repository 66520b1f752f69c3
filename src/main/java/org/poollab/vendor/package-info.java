/**
 * The vendor room: everything that differs between the databases the lab runs on
 * (PostgreSQL, MariaDB), one {@link org.poollab.vendor.Vendor} implementation each,
 * listed and answered for by {@link org.poollab.vendor.DatabaseVendor}; their embedded
 * servers. The services and the harness ask a vendor and never tell vendors apart
 * themselves ({@code VendorRoomTests}); this package uses neither.
 */
@NullMarked
package org.poollab.vendor;

import org.jspecify.annotations.NullMarked;
