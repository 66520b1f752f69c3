/**
 * The connection hold a request keeps, emulated and measured: what the lab adds to each
 * request's real path ({@code lab.hold.*}, off unless set) and what every request's
 * checkout-to-return is timed as ({@link ConnectionHold#METRIC}). Shared by the JDBC
 * service, its reactive twin and the lab that starts them.
 */
@NullMarked
package org.poollab.service.hold;

import org.jspecify.annotations.NullMarked;
