# shellcheck shell=bash
# A free loopback TCP port, for the benches' servers (sourced).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
