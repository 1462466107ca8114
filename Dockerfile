# The grading image: the kit installed from this folder (pyproject.toml's package "abkit") with its console script
# "abkit" as the entrypoint. Build it as the image abkit export prairielearn's questions name:
#
#   docker build -t abkit-grader .
#
# PrairieLearn runs each question's own grader in it (info.json's entrypoint replaces this one). An instructor on
# macOS or Windows grades a class in it, confined by the Linux kernel of Docker's virtual machine
# (docs/instructors.md, "Grading a class in a container"):
#
#   docker run --rm -v "$PWD/my-course":/course:ro -v "$PWD/submissions":/submissions:ro -v "$PWD/grades":/out abkit-grader grade /submissions --out /out
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

COPY . /tmp/abkit-source
RUN pip install /tmp/abkit-source && rm -rf /tmp/abkit-source

# the instructor's course folder is mounted here (docker run -v ...:/course), so the commands find it
WORKDIR /course
ENTRYPOINT ["abkit"]
CMD ["--help"]
