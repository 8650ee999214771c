# The game server (`rummikub serve`), one node of a cluster or a server alone (compose.yaml).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip install --no-cache-dir ".[server]"
# the server's options come from the environment: RUMMIKUB_DB, RUMMIKUB_BROKER, RUMMIKUB_NODE,
# RUMMIKUB_ALLOWED_ORIGINS (docs/cluster.md); uvicorn trusts X-Forwarded-For from
# FORWARDED_ALLOW_IPS (the reverse proxy), so budgets are per client address, not per proxy
EXPOSE 8000
HEALTHCHECK --interval=5s --timeout=3s CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/api/ready', timeout=2)"
CMD ["rummikub", "serve", "--host", "0.0.0.0", "--port", "8000"]
