package org.poollab.bench.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.poollab.bench.lab.ChildProcesses;

/**
 * nginx in front of the multi-instance topology, run by the lab itself with its
 * configuration and temp files under the run directory ({@code nginx -p}), in the
 * foreground so the lab owns the process.
 */
public final class Nginx {

	private Nginx() {
	}

	/** The executable's name, as the lab looks for it on PATH. */
	public static final String PROGRAM = "nginx";

	static ProcessHandle start(Path executable, Path directory, int port, List<Integer> upstreamPorts,
			ChildProcesses processes) throws IOException, InterruptedException {
		Files.createDirectories(directory.resolve("logs"));
		Path config = directory.resolve("nginx.conf");
		Files.writeString(config, config(directory, port, upstreamPorts));
		ProcessBuilder builder = new ProcessBuilder(executable.toString(), "-p", directory.toString(), "-c",
				config.toString(), "-g", "daemon off;")
			.redirectErrorStream(true)
			.redirectOutput(directory.resolve("logs/stdout.log").toFile());
		Process process = processes.start("nginx", builder);
		Ports.awaitListening(process, port, "nginx", directory.resolve("logs"));
		return process.toHandle();
	}

	/**
	 * One worker (the box has two cores and shares them with everything else), keep-alive
	 * to the instances so nginx does not open a connection per request, no access log.
	 */
	static String config(Path directory, int port, List<Integer> upstreamPorts) {
		String servers = upstreamPorts.stream()
			.map((upstream) -> "    server 127.0.0.1:" + upstream + ";")
			.collect(Collectors.joining("\n"));
		return """
				worker_processes 1;
				pid %1$s/nginx.pid;
				error_log %1$s/logs/error.log warn;
				events { worker_connections 4096; }
				http {
				  access_log off;
				  client_body_temp_path %1$s/client_body;
				  proxy_temp_path %1$s/proxy;
				  fastcgi_temp_path %1$s/fastcgi;
				  uwsgi_temp_path %1$s/uwsgi;
				  scgi_temp_path %1$s/scgi;
				  upstream roles {
				%2$s
				    keepalive 64;
				  }
				  server {
				    listen 127.0.0.1:%3$d;
				    location / {
				      proxy_pass http://roles;
				      proxy_http_version 1.1;
				      proxy_set_header Connection "";
				    }
				  }
				}
				""".formatted(directory, servers, port);
	}

}
