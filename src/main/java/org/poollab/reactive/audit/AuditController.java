package org.poollab.reactive.audit;

import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The write-heavy endpoint the lab can load instead of {@code GET /roles}, with the JDBC
 * service's answers: {@code 201} with the rows inserted, {@code 404} for an unknown role.
 */
@RestController
class AuditController {

	private final AuditRepository audit;

	AuditController(AuditRepository audit) {
		this.audit = audit;
	}

	@PostMapping("/roles/{id}/audit")
	Mono<ResponseEntity<Map<String, Object>>> record(@PathVariable long id) {
		return this.audit.record(id).map((inserted) -> {
			if (inserted == 0) {
				ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, "No role with id " + id);
				problem.setTitle("Role not found");
				throw new ErrorResponseException(HttpStatus.NOT_FOUND, problem, null);
			}
			return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("roleId", id, "inserted", inserted));
		});
	}

}
