package org.poollab.service.role;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Role-based access control, read side: the endpoint the lab puts load on.
 */
@RestController
class RoleController {

	private final RoleRepository roles;

	RoleController(RoleRepository roles) {
		this.roles = roles;
	}

	@GetMapping("/roles")
	List<Role> roles() {
		return this.roles.findAll();
	}

	@GetMapping("/roles/{id}")
	Role role(@PathVariable long id) {
		if (id < 1) {
			throw InvalidRoleIdAdvice.invalidId(String.valueOf(id));
		}
		return this.roles.findById(id).orElseThrow(() -> notFound(id));
	}

	private static ErrorResponseException notFound(long id) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "No role with id " + id);
		problem.setTitle("Role not found");
		return new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
	}

}
