package org.poollab.reactive.system;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A request that does nothing: no pool, no database, as on the JDBC service. The lab
 * loads it to find the load generator's own ceiling, apart from anything the service's
 * work costs.
 */
@RestController
class PingController {

	@GetMapping("/ping")
	String ping() {
		return "pong";
	}

}
