# steplab web and worker image. The frontend is built in a Node stage and served by Django.
FROM node:20-bookworm-slim AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=annotate.settings.production
WORKDIR /app
RUN useradd --create-home --uid 1000 steplab
COPY pyproject.toml ./
COPY annotate/ annotate/
COPY labeling/ labeling/
COPY autolabel/ autolabel/
COPY training_runs/ training_runs/
COPY training/ training/
# The trainer image (docker-compose.yml's `trainer`) builds with PIP_EXTRAS="[ml]": torch,
# transformers, accelerate. The web and worker images stay without them.
ARG PIP_EXTRAS=""
RUN pip install --no-cache-dir ".${PIP_EXTRAS}"
COPY manage.py gunicorn.conf.py ./
COPY --from=frontend /app/frontend/dist frontend/dist
RUN SECRET_KEY=build-only python manage.py collectstatic --noinput \
    && mkdir -p /app/var && chown -R steplab /app/var
USER steplab
EXPOSE 8000
CMD ["gunicorn", "annotate.wsgi:application"]
