package org.poollab.service.system;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A request that does nothing: no pool, no database. The lab loads it to find the load
 * generator's own ceiling on this machine, apart from anything the service's work costs.
 */
@RestController
class PingController {

	@GetMapping("/ping")
	String ping() {
		return "pong";
	}

}
