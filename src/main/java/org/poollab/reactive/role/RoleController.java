package org.poollab.reactive.role;

import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Role-based access control, read side, reactive: the endpoint the lab puts load on.
 */
@RestController
class RoleController {

	private final RoleRepository roles;

	RoleController(RoleRepository roles) {
		this.roles = roles;
	}

	@GetMapping("/roles")
	Mono<List<Role>> roles() {
		return this.roles.findAll();
	}

}
