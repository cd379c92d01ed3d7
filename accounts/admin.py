from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "is_organizer", "is_staff", "date_joined")
    list_filter = ("is_organizer", "is_staff", "is_superuser", "is_active")
    fieldsets = (*BaseUserAdmin.fieldsets, ("Deckhall", {"fields": ("is_organizer",)}))
